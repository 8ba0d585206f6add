// The note beside the editor on the order of pairs and next.
//
// Lua leaves the order in which pairs and next visit a table undefined. The
// engine follows the order Redis's Lua 5.1 gives for the tables a script
// usually makes (filled by assignment, string keys and an array), but not
// for every table: number keys past the array part can come out in
// another order. So when a script uses pairs or next, the editor says so
// beside it. It finds them by reading the script's text, not by running
// it: any call of pairs( or next( outside a comment or a string counts,
// whatever the table holds.

/** The script's text with its comments and string literals blanked out. */
export function codeOnly(source) {
  return source
    .replace(/--\[(=*)\[[\s\S]*?\]\1\]/g, " ")
    .replace(/\[(=*)\[[\s\S]*?\]\1\]/g, '""')
    .replace(/--[^\n]*/g, " ")
    .replace(/"(?:\\[\s\S]|[^"\\\n])*"|'(?:\\[\s\S]|[^'\\\n])*'/g, '""');
}

/** Whether the script calls pairs or next (ipairs does not count). */
export function usesTableOrder(source) {
  return /(^|[^\w.:])(pairs|next)\s*\(/.test(codeOnly(source));
}

/** The note to show beside a script, or "" when it needs none. */
export function tableOrderNote(source) {
  if (!usesTableOrder(source)) return "";
  return (
    "This script walks a table with pairs or next. Lua does not define that order; the playground gives the " +
    "order Redis gives for a table filled by assignment, but a table with number keys past its array part (or " +
    "with holes) may come out in another order here than in Redis. (Found by reading the script's text.)"
  );
}
