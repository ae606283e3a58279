# The House Divided game server. Built by docker-compose.yml; runs `python -m app serve`,
# which applies the database migrations first.

# The rules engine compiled to C (rules_engine/native.py), in an image that has a C
# compiler; the server's image below takes only the compiled modules. Both images are
# the same Python on the same Debian, which the build's manifest is checked against.
FROM python:3.11 AS engine
WORKDIR /srv/house-divided
COPY pyproject.toml README.md ./
COPY rules_engine ./rules_engine
RUN pip install --no-cache-dir PyYAML "Cython>=3.1,<4" "setuptools>=68" \
    && python -m rules_engine build-native

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/house-divided
COPY pyproject.toml README.md ./
COPY rules_engine ./rules_engine
COPY --from=engine /srv/house-divided/rules_engine/_native ./rules_engine/_native
COPY app ./app
COPY migrations ./migrations
COPY alembic.ini ./
COPY templates ./templates
COPY static ./static
COPY locale ./locale
RUN pip install -e . \
    && useradd --system --home-dir /srv/house-divided house-divided \
    && mkdir -p /srv/house-divided/data && chown house-divided /srv/house-divided/data \
    && python -m rules_engine native-status

USER house-divided
EXPOSE 8000
CMD ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
