/** A new feature's default id, the same in the CLI, the core and the New feature dialog: `F-` and the title's first words, lowercase. */
export const featureIdFor = (title: string): string => {
  const words = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let slug = '';
  for (const word of words) if (`${slug}-${word}`.length <= 40) slug = slug ? `${slug}-${word}` : word;
  return `F-${slug || 'feature'}`;
};
