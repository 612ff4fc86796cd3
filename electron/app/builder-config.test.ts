/**
 * electron-builder.yml's security settings: the fuses flipped in the packaged binary and asar.
 * The file is parsed with the YAML parser electron-builder itself uses (js-yaml, app-builder-lib's
 * dependency), and every key is checked against app-builder-lib's own scheme.json, so a misspelled
 * fuse, which electron-builder would reject or a reader would miss, fails here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Resolved the way electron-builder resolves them: app-builder-lib from electron-builder, js-yaml from app-builder-lib.
const fromBuilder = createRequire(createRequire(join(ROOT, 'package.json')).resolve('electron-builder/package.json'));
const APP_BUILDER_LIB = dirname(fromBuilder.resolve('app-builder-lib/package.json'));
const yaml = createRequire(join(APP_BUILDER_LIB, 'package.json'))('js-yaml') as { load(text: string): unknown };

interface JsonSchema {
  readonly $ref?: string;
  readonly anyOf?: readonly JsonSchema[];
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly additionalProperties?: boolean;
  readonly definitions?: Readonly<Record<string, JsonSchema>>;
}

const scheme = JSON.parse(readFileSync(join(APP_BUILDER_LIB, 'scheme.json'), 'utf8')) as JsonSchema;
const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const fuses = config.electronFuses as Record<string, unknown> | undefined;

/** The object schema behind a property: follows its `$ref` (through `anyOf`) into scheme.json's definitions. */
function objectSchema(property: JsonSchema | undefined): JsonSchema | undefined {
  const ref = property?.$ref ?? property?.anyOf?.find((option) => option.$ref)?.$ref;
  return ref ? scheme.definitions?.[ref.replace('#/definitions/', '')] : property;
}

/** Production sources under electron/ (no tests or fixtures) that contain `text`. */
function sourcesContaining(text: string): string[] {
  const dir = join(ROOT, 'electron');
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file.endsWith('.ts') && !/\.(test|fixture)\.ts$/.test(file))
    .filter((file) => readFileSync(join(dir, file), 'utf8').includes(text));
}

describe('electron-builder.yml', () => {
  it('uses only keys electron-builder knows', () => {
    expect(scheme.additionalProperties).toBe(false);
    expect(Object.keys(config).filter((key) => !(key in (scheme.properties ?? {})))).toEqual([]);
  });

  it('flips the fuses, each key one of electron-builder\u2019s (misspelt keys fail) and a real boolean', () => {
    const fuseSchema = objectSchema(scheme.properties?.electronFuses);
    expect(fuseSchema?.additionalProperties).toBe(false);
    expect(fuses).toBeDefined();
    for (const [key, value] of Object.entries(fuses ?? {})) {
      expect(fuseSchema?.properties, `electronFuses.${key} is not in app-builder-lib's scheme.json`).toHaveProperty(key);
      expect(fuseSchema?.properties?.[key]?.type).toBe('boolean');
      expect(typeof value, `electronFuses.${key}`).toBe('boolean');
    }
  });

  it('pins every fuse value', () => {
    expect(fuses).toEqual({
      runAsNode: true, // see the runAsNode test below
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: true, // see the file:// test below
    });
  });

  it('packs the app into asar, with its integrity recorded (the asar fuses depend on both)', () => {
    expect(config.asar === undefined || config.asar === true || (typeof config.asar === 'object' && config.asar !== null)).toBe(true);
    expect(config.disableAsarIntegrity).not.toBe(true);
  });

  it('keeps runAsNode on exactly while the app starts Electron as Node (ELECTRON_RUN_AS_NODE)', () => {
    // The embedded Postgres server is spawned as process.execPath with ELECTRON_RUN_AS_NODE=1: with
    // the fuse off, that spawn would start a second Baton instead. Once nothing sets the variable,
    // this fails until the fuse is turned off.
    const users = sourcesContaining('ELECTRON_RUN_AS_NODE');
    expect(fuses?.runAsNode, `files setting ELECTRON_RUN_AS_NODE: ${users.join(', ') || 'none'}`).toBe(users.length > 0);
  });

  it('keeps grantFileProtocolExtraPrivileges on exactly while the renderer is loaded from file://', () => {
    // Without the fuse Electron serves no file:// URL out of app.asar and refuses module scripts
    // across file://. Serve the renderer from a custom protocol, and this fails until the fuse is off.
    const main = readFileSync(join(ROOT, 'electron', 'app', 'main.ts'), 'utf8');
    const loadsFromFile = /\.loadFile\(|loadURL\(\s*pathToFileURL\(/.test(main);
    expect(fuses?.grantFileProtocolExtraPrivileges).toBe(loadsFromFile);
  });
});
