/**
 * test-list.json rendered as one table grouped by story, then by acceptance criterion (group
 * headers as rows), with each test's id, description, kind and status.
 */
import { TEST_STATUSES, type TestStatus } from '../../../../shared/model';
import { TestStatusBadge } from '../../components/status-badge';
import { entryMark, type Against } from './compare';
import { groupTestList, type SpecIndex, type TestListDoc, type TestListItem } from './parse-test-list';
import { ChangeMark, markClass, orDash } from './parts';

const isTestStatus = (status: string | null): status is TestStatus => (TEST_STATUSES as readonly string[]).includes(status ?? '');

const titled = (id: string, title: string | undefined) => (title ? `${id} · ${title}` : id);

function ItemRow({ item, against }: { item: TestListItem; against?: Against<TestListDoc> }) {
  const mark = entryMark(item, against?.other.items, (i) => i.id, against?.side);
  return (
    <tr className={markClass(mark)} data-testid={item.id ? `test-list-row-${item.id}` : undefined}>
      <td className="mono">
        {orDash(item.id)} <ChangeMark mark={mark} />
      </td>
      <td>
        {orDash(item.description)}
        {item.invariant && <span className="muted"> · tests invariant {item.invariant}</span>}
      </td>
      <td>{orDash(item.kind)}</td>
      <td>{isTestStatus(item.status) ? <TestStatusBadge status={item.status} /> : orDash(item.status)}</td>
    </tr>
  );
}

export function TestListView({ doc, against, spec }: { doc: TestListDoc; against?: Against<TestListDoc>; spec?: SpecIndex }) {
  const groups = groupTestList(doc.items, spec);
  const count = `${doc.items.length} ${doc.items.length === 1 ? 'test' : 'tests'}`;
  return (
    <div className="rendered-doc">
      <p className="muted">
        {doc.feature ? `Test list of ${doc.feature} · ` : ''}
        {count}, grouped by story and acceptance criterion, in the planned order.
      </p>
      {doc.items.length === 0 ? (
        <p className="muted">No tests.</p>
      ) : (
        <table className="table rendered-table test-list-table" aria-label="Test list, grouped by story and acceptance criterion" data-testid="test-list-table">
          <colgroup>
            <col className="col-test-id" />
            <col />
            <col className="col-test-kind" />
            <col className="col-test-status" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">Description</th>
              <th scope="col">Kind</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          {groups.map((story) => (
            <tbody key={story.storyId ?? '∅'} data-testid={`test-list-story-${story.storyId ?? 'none'}`}>
              <tr className="group-story">
                <th scope="rowgroup" colSpan={4}>
                  {story.storyId === null ? 'No story' : `Story ${titled(story.storyId, spec?.storyTitles.get(story.storyId))}`}
                </th>
              </tr>
              {story.acs.flatMap((ac) => [
                <tr key={`ac-${ac.acId ?? '∅'}`} className="group-ac" data-testid={`test-list-ac-${ac.acId ?? 'none'}`}>
                  <th colSpan={4}>{ac.acId === null ? 'No acceptance criterion' : titled(ac.acId, spec?.acTitles.get(ac.acId))}</th>
                </tr>,
                ...ac.items.map((item, i) => <ItemRow key={`${item.id ?? ''}-${ac.acId ?? ''}-${i}`} item={item} against={against} />),
              ])}
            </tbody>
          ))}
        </table>
      )}
    </div>
  );
}
