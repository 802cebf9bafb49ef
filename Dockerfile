# syntax=docker/dockerfile:1
# The API as a container: built in one stage, run from a second one that holds only the compiled
# service and its production dependencies, as an unprivileged user.

FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
# Native modules (better-sqlite3) compile when no prebuilt binary fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bin ./bin
# The SDK is an npm workspace of this repository: `npm ci` needs it and builds it (it is not
# copied into the image).
COPY sdk ./sdk
# `npm ci` runs the `prepare` script, which compiles src/ to dist/.
RUN npm ci --no-audit --no-fund \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
# The embedded default (SQLite and a local media folder) writes under /app/data; a fleet sets
# DATABASE_URL and MEDIA_STORE=s3 instead and needs no volume.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM reaches node directly (exec form): it drains in-flight requests and exits 0.
CMD ["node", "dist/src/main.js"]
