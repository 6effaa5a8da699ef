/** "1 entry", "6 entries", "0 files": a count with its noun in the right number, for lines people read. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
