/**
 * The column a unique-index violation names ('' when it names none), or undefined when `error` is
 * not one: PostgreSQL and PGlite SQLSTATE 23505, MySQL/MariaDB ER_DUP_ENTRY (1062), SQLite
 * SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY.
 */
export function uniqueViolation(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; errno?: unknown; message?: unknown; detail?: unknown; constraint?: unknown };
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.code === '23505') {
    const detail = typeof e.detail === 'string' ? e.detail : '';
    const key = /Key \((?:lower\()?(?:normalize\()?"?([\w$]+)"?/.exec(detail);
    if (key?.[1] !== undefined) return key[1];
    return typeof e.constraint === 'string' ? e.constraint.replace(/^[\w$]+?_/, '').replace(/_key$|_idx$/, '') : '';
  }
  if (e.code === 'ER_DUP_ENTRY' || e.errno === 1062) {
    const key = /for key '(?:[\w$]+\.)?([\w$]+)'/.exec(message);
    return key?.[1] ?? '';
  }
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const key = /failed: (?:[\w$]+\.)?([\w$]+)/.exec(message);
    return key?.[1] ?? '';
  }
  return undefined;
}

/** Whether `error` is a NOT NULL violation (a column the mapping leaves empty), by dialect. */
export function notNullViolation(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; errno?: unknown; message?: unknown; column?: unknown };
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.code === '23502') return typeof e.column === 'string' ? e.column : (/column "([^"]+)"/.exec(message)?.[1] ?? '');
  if (e.code === 'ER_BAD_NULL_ERROR' || e.errno === 1048 || e.code === 'ER_NO_DEFAULT_FOR_FIELD' || e.errno === 1364) return /'([^']+)'/.exec(message)?.[1] ?? '';
  if (e.code === 'SQLITE_CONSTRAINT_NOTNULL') return /failed: (?:[\w$]+\.)?([\w$]+)/.exec(message)?.[1] ?? '';
  return undefined;
}
