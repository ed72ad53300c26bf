#!/bin/sh
# Stands in for Prisma's native schema engine, which cannot be downloaded here. `prisma generate`
# never runs it; migrations go through @prisma/schema-engine-wasm (platform/db/schema-engine.ts).
echo "The native Prisma schema engine is not available: use npm run db:migrate / db:diff (WASM engine)." >&2
exit 1
