import type { Queryable } from "./database.ts";

/**
 * One page of a listing and the total it is a page of: the COUNT query and the rows query
 * share the filter's parameters; the rows query gets LIMIT and OFFSET as the next two
 * parameters (so its text ends where they go). The count column is named `total`.
 */
export async function countAndPage<Row>(
  queryable: Queryable,
  query: { countSql: string; rowsSql: string; params: unknown[]; page: number; limit: number },
): Promise<{ rows: Row[]; total: number }> {
  const { params, page, limit } = query;
  const count = await queryable.query<{ total: number }>(query.countSql, params);
  const rows = await queryable.query<Row>(
    `${query.rowsSql} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, (page - 1) * limit],
  );
  return { rows: rows.rows, total: count.rows[0]!.total };
}
