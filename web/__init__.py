"""The phone dashboard: FastAPI + uvicorn."""
