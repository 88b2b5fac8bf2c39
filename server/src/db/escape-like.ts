/** Text matched literally inside a LIKE pattern (with ESCAPE '\'): \, % and _ lose their meaning. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
