/**
 * The CLI's one door to the core, opened on a command's first use: `baton --help`, `--version` and a
 * usage error load none of it (the bundle puts each behind its own chunk). Commands import types
 * statically and values through these.
 */
export const projectTools = () => import('../core/project-tools');
export const inspection = () => import('../core/inspect-project');
export const hostSessions = () => import('../core/host-session');
export const verification = () => import('../core/verify-project');
export const greenReruns = () => import('../core/rerun-green');
export const dossiers = () => import('../core/dossier-file');
export const evaluations = () => import('../eval/cli-support');
