/** PostgreSQL's unique_violation, from node-postgres or PGlite (drizzle may wrap it in `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
