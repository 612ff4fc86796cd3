/**
 * The design's artifacts: architecture.json (layers, non-functional requirements with their fitness
 * checks, persistence invariants; older files: style, components, decisions, testing),
 * db-design.json (tables and migrations) and ux-guide.json (screens and their states).
 */
import { anyPresent, readObject, type ObjectReader, type Read } from './read';

export interface Layer {
  readonly name: string | null;
  readonly responsibility: string | null;
}
export interface NonFunctional {
  readonly id: string | null;
  readonly requirement: string | null;
  readonly fitnessCheck: string | null;
}
export interface Invariant {
  readonly id: string | null;
  readonly statement: string | null;
}
export interface Component {
  readonly name: string | null;
  readonly role: string | null;
}
export interface Decision {
  readonly id: string | null;
  readonly text: string | null;
}

export interface ArchitectureDoc {
  readonly feature: string | null;
  readonly layers: readonly Layer[] | null;
  readonly nonFunctional: readonly NonFunctional[] | null;
  readonly invariants: readonly Invariant[] | null;
  readonly style: string | null;
  readonly components: readonly Component[] | null;
  readonly decisions: readonly Decision[] | null;
  readonly testing: string | null;
}

export interface Column {
  readonly name: string | null;
  readonly type: string | null;
  readonly constraints: readonly string[];
}
export interface Table {
  readonly name: string | null;
  readonly columns: readonly Column[];
  readonly constraints: readonly string[];
}
export interface Migration {
  readonly name: string | null;
  readonly purpose: string | null;
}
export interface DbDesignDoc {
  readonly feature: string | null;
  readonly tables: readonly Table[];
  readonly migrations: readonly Migration[] | null;
}

export interface ScreenState {
  readonly name: string | null;
  readonly shows: string | null;
}
export interface Screen {
  readonly name: string | null;
  readonly states: readonly ScreenState[];
}
export interface UxGuideDoc {
  readonly feature: string | null;
  readonly screens: readonly Screen[];
}

const FEATURE_KEYS = ['feature_id', 'featureId', 'feature'];

export const readArchitecture = (value: unknown): Read<ArchitectureDoc> | null =>
  readObject(value, (r) => {
    const doc: ArchitectureDoc = {
      feature: r.text(...FEATURE_KEYS),
      layers: r.list(['layers'], {
        object: (l) => ({ name: l.text('name'), responsibility: l.text('responsibility', 'role') }),
        text: (name) => ({ name, responsibility: null }),
      }),
      nonFunctional: r.list(['nonFunctional', 'non_functional', 'nonFunctionalRequirements', 'non_functional_requirements', 'nfrs'], {
        object: (n) => ({ id: n.text('id'), requirement: n.text('requirement', 'description'), fitnessCheck: n.text('fitnessCheck', 'fitness_check') }),
        text: (requirement) => ({ id: null, requirement, fitnessCheck: null }),
      }),
      invariants: r.list(['persistenceInvariants', 'persistence_invariants', 'invariants'], {
        object: (i) => ({ id: i.text('id'), statement: i.text('statement', 'description') }),
        text: (statement) => ({ id: null, statement }),
      }),
      style: r.text('style'),
      components: r.list(['components'], {
        object: (c) => ({ name: c.text('name'), role: c.text('role', 'responsibility') }),
        text: (name) => ({ name, role: null }),
      }),
      decisions: r.list(['decisions'], {
        object: (d) => ({ id: d.text('id'), text: d.text('title', 'text', 'decision') }),
        text: (text) => ({ id: null, text }),
      }),
      testing: r.text('testing'),
    };
    return anyPresent(doc.layers, doc.nonFunctional, doc.invariants, doc.style, doc.components, doc.decisions, doc.testing) ? doc : null;
  });

const readColumn = (c: ObjectReader): Column => ({ name: c.text('name'), type: c.text('type'), constraints: c.texts('constraints') ?? [] });

export const readDbDesign = (value: unknown): Read<DbDesignDoc> | null =>
  readObject(value, (r) => {
    const tables = r.list(['tables'], {
      object: (t) => ({
        name: t.text('name'),
        columns: t.list(['columns'], { object: readColumn, text: (name) => ({ name, type: null, constraints: [] }) }) ?? [],
        constraints: t.texts('constraints') ?? [],
      }),
    });
    if (tables === null) return null;
    return {
      feature: r.text(...FEATURE_KEYS),
      tables,
      migrations: r.list(['migrations'], {
        object: (m) => ({ name: m.text('name'), purpose: m.text('purpose', 'description') }),
        text: (name) => ({ name, purpose: null }),
      }),
    };
  });

export const readUxGuide = (value: unknown): Read<UxGuideDoc> | null =>
  readObject(value, (r) => {
    const screens = r.list(['screens'], {
      object: (s) => ({
        name: s.text('name'),
        states: s.list(['states'], { object: (st) => ({ name: st.text('name'), shows: st.text('shows') }), text: (name) => ({ name, shows: null }) }) ?? [],
      }),
    });
    return screens === null ? null : { feature: r.text(...FEATURE_KEYS), screens };
  });
