"""The Gradio UI's parts: what it shows (``render``); ``app_gradio.py`` builds the page from them."""
