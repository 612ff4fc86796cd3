import { describe, expect, it } from 'vitest';
import { buildLanes, stackableFor, type LaneStory } from './lanes';

const independent = (id: string): LaneStory => ({ id, independent: true, dependsOn: [] });
const dependsOn = (id: string, ...deps: string[]): LaneStory => ({ id, independent: false, dependsOn: deps });

describe('build lanes', () => {
  it('keeps stories that declare nothing in one lane, in build order, each stacked on the ones before', () => {
    const lanes = buildLanes(['S1', 'S2', 'S3'], []);
    expect(lanes).toEqual([['S1', 'S2', 'S3']]);
    expect(stackableFor(lanes, 'S3')).toEqual(['S1', 'S2']);
    expect(stackableFor(lanes, 'S1')).toEqual([]);
  });

  it('gives every independent story a lane of its own', () => {
    expect(buildLanes(['S1', 'S2', 'S3'], ['S1', 'S2', 'S3'].map(independent))).toEqual([['S1'], ['S2'], ['S3']]);
  });

  it('puts a story in the lane of each story it depends on, joining them', () => {
    const lanes = buildLanes(['A', 'B', 'C', 'D'], [independent('A'), independent('B'), dependsOn('C', 'A'), independent('D')]);
    expect(lanes).toEqual([['A', 'C'], ['B'], ['D']]);
    const joined = buildLanes(['A', 'B', 'C'], [independent('A'), independent('B'), dependsOn('C', 'A', 'B')]);
    expect(joined).toEqual([['A', 'B', 'C']]);
    expect(stackableFor(joined, 'C')).toEqual(['A', 'B']);
  });

  it('makes a story that declares nothing depend on every story before it, however independent those are', () => {
    const lanes = buildLanes(['A', 'B', 'unassigned', 'C'], [independent('A'), independent('B'), independent('C')]);
    expect(lanes).toEqual([['A', 'B', 'unassigned'], ['C']]);
  });

  it('treats `independent: false` naming no story, and dependencies on unknown stories, as depending on every earlier story', () => {
    expect(buildLanes(['A', 'B'], [independent('A'), { id: 'B', independent: false, dependsOn: [] }])).toEqual([['A', 'B']]);
    expect(buildLanes(['A', 'B'], [independent('A'), dependsOn('B', 'Z')])).toEqual([['A', 'B']]);
  });

  it('keeps build order inside a lane when a story depends on a later one', () => {
    expect(buildLanes(['A', 'B', 'C'], [dependsOn('A', 'C'), independent('B'), independent('C')])).toEqual([['A', 'C'], ['B']]);
  });

  it('answers no stackable stories for a story in no lane', () => {
    expect(stackableFor([['A']], 'Q')).toEqual([]);
  });
});
