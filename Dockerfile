# The House Divided game server. Built by docker-compose.yml; runs `python -m app serve`,
# which applies the database migrations first.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/house-divided
COPY pyproject.toml README.md ./
COPY rules_engine ./rules_engine
COPY app ./app
COPY migrations ./migrations
COPY alembic.ini ./
COPY templates ./templates
COPY static ./static
COPY locale ./locale
RUN pip install -e . \
    && useradd --system --home-dir /srv/house-divided house-divided \
    && mkdir -p /srv/house-divided/data && chown house-divided /srv/house-divided/data

USER house-divided
EXPOSE 8000
CMD ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
