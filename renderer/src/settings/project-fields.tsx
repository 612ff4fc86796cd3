/** One group of the project settings form: each field with its hint and, next to it, what is wrong with its value. */
import { Fragment } from 'react';
import type { SettingsIssue } from '../../../shared/project-settings';
import { fieldOf, type Field, type FieldGroup } from './project-draft';

interface Props {
  readonly group: FieldGroup;
  readonly values: Readonly<Record<string, string>>;
  readonly issues: readonly SettingsIssue[];
  readonly readOnly: boolean;
  readonly onChange: (path: string, value: string) => void;
}

/** The form's id of a field (`smells.stallFactor` → `setting-smells-stallFactor`), also its test id. */
export const fieldId = (path: string): string => `setting-${path.replaceAll('.', '-')}`;

export function FieldGroupSection({ group, values, issues, readOnly, onChange }: Props) {
  const roots = new Set(group.fields.map((f) => f.path.split('.')[0]!));
  // What main's schema says of the group as a whole (a gate policy naming a role nobody defines).
  const ofGroup = issues.filter((i) => fieldOf(i) === null && roots.has(i.path.split('.')[0]!));
  return (
    <fieldset className="settings-group" data-testid={`settings-group-${group.key}`}>
      <legend>{group.title}</legend>
      <p className="muted settings-hint">{group.about}</p>
      <div className="settings-grid">
        {group.fields.map((field) => (
          <Fragment key={field.path}>
            <label htmlFor={fieldId(field.path)}>{field.label}</label>
            <div>
              <Input field={field} value={values[field.path] ?? ''} readOnly={readOnly} onChange={(v) => onChange(field.path, v)} />
              {field.hint && (
                <span id={`${fieldId(field.path)}-hint`} className="muted settings-hint">
                  {field.hint}
                </span>
              )}
              <Problems id={fieldId(field.path)} issues={issues.filter((i) => fieldOf(i) === field.path)} />
            </div>
          </Fragment>
        ))}
      </div>
      <Problems id={`settings-group-${group.key}`} issues={ofGroup} />
    </fieldset>
  );
}

function Input({ field, value, readOnly, onChange }: { field: Field; value: string; readOnly: boolean; onChange: (value: string) => void }) {
  const common = {
    id: fieldId(field.path),
    'data-testid': fieldId(field.path),
    value,
    disabled: readOnly,
    'aria-describedby': field.hint ? `${fieldId(field.path)}-hint` : undefined,
  };
  if (field.kind === 'switch')
    return (
      <select {...common} onChange={(e) => onChange(e.target.value)}>
        <option value="">default ({field.placeholder})</option>
        <option value="true">on</option>
        <option value="false">off</option>
      </select>
    );
  if (field.kind === 'roles') return <textarea {...common} rows={2} placeholder={field.placeholder} onChange={(e) => onChange(e.target.value)} />;
  return (
    <input
      {...common}
      inputMode={field.kind === 'int' || field.kind === 'number' ? 'decimal' : undefined}
      placeholder={field.placeholder}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** The problems of one field or group, said beside it. */
export function Problems({ id, issues }: { id: string; issues: readonly SettingsIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <p className="field-error" role="alert" data-testid={`${id}-problem`}>
      {issues.map((i) => `${i.path} ${i.message}`).join('; ')}
    </p>
  );
}
