# syntax=docker/dockerfile:1
# The API as a container: dependencies installed in a layer that changes only with the lock file,
# compiled in a second stage, run from a third that holds only the compiled service and its
# production dependencies, as an unprivileged user.
#
# The base is pinned to an exact Node.js release (24 LTS). For byte-for-byte rebuilds also pin
# its digest once pulled: `docker buildx imagetools inspect node:24.21.0-bookworm-slim`, then
# `FROM node:24.21.0-bookworm-slim@sha256:<digest>` in the three stages.

FROM node:24.21.0-bookworm-slim AS deps
WORKDIR /app
# Only the manifests: this layer and the install below are reused until the lock file changes.
# The SDK is an npm workspace of this repository, so its manifest is part of the lock.
COPY package.json package-lock.json ./
COPY sdk/package.json ./sdk/package.json
# --ignore-scripts: no dependency the service runs needs an install script (better-sqlite3 and
# sharp ship prebuilt binaries). --workspaces=false: the SDK workspace is neither installed nor
# linked, so its lifecycle scripts (which need its sources and tsc) never run — npm 10 runs a
# workspace's `prepare` even with --ignore-scripts, and npm 11's `prune` runs it too.
RUN npm ci --ignore-scripts --workspaces=false --no-audit --no-fund

FROM deps AS prod-deps
# No link to ./sdk may be left dangling in the runtime image (the service does not import the
# SDK): the flags above make none, and the rm makes sure.
RUN npm prune --omit=dev --ignore-scripts --workspaces=false --no-audit --no-fund \
 && rm -f node_modules/store-blog-sdk

FROM deps AS build
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY package.json ./package.json
COPY bin ./bin
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
# The embedded default (SQLite and a local media folder) writes under /app/data: mount a named
# volume there (`-v blog-data:/app/data`). A fleet sets DATABASE_URL and MEDIA_STORE=s3 instead
# and needs none; no VOLUME line, so replicas do not each get an anonymous one.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM reaches node directly (exec form): it drains in-flight requests and exits 0.
CMD ["node", "dist/src/main.js"]
