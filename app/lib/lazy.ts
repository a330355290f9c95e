/**
 * A value built on its first use and kept (decision 234): what a module would otherwise build when the
 * Worker starts, such as a zod schema, is built by the first request that needs it.
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}
