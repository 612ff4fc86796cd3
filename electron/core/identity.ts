/** The approver identity to offer by default: git's user.name and user.email, as "Name <email>". */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function gitConfig(cwd: string, key: string): Promise<string | null> {
  try {
    const value = (await run('git', ['config', '--get', key], { cwd })).stdout.trim();
    return value || null;
  } catch {
    return null;
  }
}

export async function defaultIdentity(cwd: string): Promise<string | null> {
  const [name, email] = await Promise.all([gitConfig(cwd, 'user.name'), gitConfig(cwd, 'user.email')]);
  if (name && email) return `${name} <${email}>`;
  return name ?? email;
}
