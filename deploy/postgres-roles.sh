#!/usr/bin/env bash
# Creates the service's database with two roles. compose.yaml runs it once, from the postgres
# image's /docker-entrypoint-initdb.d, on an empty data directory; a restore runs it again
# (docs/deployment.md, "Backup and restore"): what exists already is left as it is.
#   - the owner (BLOG_OWNER) owns the database and every table; `blog-api migrate` and
#     `pg_restore` run as it;
#   - the service (BLOG_APP) owns nothing: it may read and write rows and draw ids, never change
#     the schema, grant, or drop anything.
# Tables the owner creates later (new migrations, a restore) are granted to the service by the
# default privileges set here.
# By hand, against a server of your own: the same variables, and PG* settings (PGHOST, …) for
# psql, which connects as POSTGRES_USER (a superuser, or a role with CREATEROLE and CREATEDB).
set -euo pipefail
: "${BLOG_DB:=blog}" "${BLOG_OWNER:=blog_owner}" "${BLOG_APP:=blog_app}"
: "${BLOG_OWNER_PASSWORD:?set BLOG_OWNER_PASSWORD}" "${BLOG_APP_PASSWORD:?set BLOG_APP_PASSWORD}"
admin=(psql -v ON_ERROR_STOP=1 --no-psqlrc --quiet --username "${POSTGRES_USER:-postgres}")

"${admin[@]}" --dbname "${POSTGRES_DB:-postgres}" \
  -v db="$BLOG_DB" -v owner="$BLOG_OWNER" -v app="$BLOG_APP" \
  -v owner_password="$BLOG_OWNER_PASSWORD" -v app_password="$BLOG_APP_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', :'owner', :'owner_password')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner') \gexec
SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', :'app', :'app_password')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'owner')
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'db') \gexec
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"db" TO :"app";
SQL

"${admin[@]}" --dbname "$BLOG_DB" -v owner="$BLOG_OWNER" -v app="$BLOG_APP" <<'SQL'
ALTER SCHEMA public OWNER TO :"owner";
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO :"app";
SQL
