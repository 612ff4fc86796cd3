import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, writeTree } from '../project/temp-project.fixture';
import { downstreamOf, gateArtifacts } from './definitions';
import { batonFeature } from './gate-project.fixture';

let root: string;
beforeEach(async () => {
  root = await makeTempDir('baton-defs-');
});
afterEach(() => removeDir(root));

describe('gate definitions', () => {
  it("names each gate's artifacts relative to the feature folder, sorted", async () => {
    await writeTree(root, {
      ...batonFeature(),
      '.baton/features/F-1/ux-guide.md': '# UX\n',
      '.baton/features/F-1/stories/S-10/story.json': { id: 'S-10', title: 'Later' },
    });
    const art = path.join(root, '.baton');
    expect(await gateArtifacts(art, 'F-1', 'spec')).toEqual([
      'feature.json',
      'stories/S-1/acs/AC-1.json',
      'stories/S-1/acs/AC-2.json',
      'stories/S-1/story.json',
      'stories/S-10/story.json',
    ]);
    expect(await gateArtifacts(art, 'F-1', 'design')).toEqual(['architecture.json', 'db-design.json', 'ux-guide.md']);
    expect(await gateArtifacts(art, 'F-1', 'test_list')).toEqual(['test-list.json']);
    expect(await gateArtifacts(art, 'F-1', 'acceptance', 'S-1')).toEqual(['stories/S-1/acs/AC-1.json', 'stories/S-1/acs/AC-2.json', 'stories/S-1/story.json']);
    expect(await gateArtifacts(art, 'F-1', 'promote')).toEqual(['deploy-evidence.json']);
  });

  it('lists required artifacts even when missing, and finds folders by the ids inside them', async () => {
    await writeTree(root, {
      '.baton/features/checkout/feature-spec.json': { feature_id: 'F-7', name: 'Checkout' },
      '.baton/features/checkout/stories/first/story.json': { id: 'S-1', title: 'Pay' },
    });
    const art = path.join(root, '.baton');
    expect(await gateArtifacts(art, 'F-7', 'design')).toEqual(['architecture.json']);
    expect(await gateArtifacts(art, 'F-7', 'spec')).toEqual(['feature-spec.json', 'stories/first/story.json']);
    expect(await gateArtifacts(art, 'F-7', 'acceptance', 'S-1')).toEqual(['stories/first/story.json']);
    expect(await gateArtifacts(art, 'F-8', 'spec')).toEqual(['feature-spec.json']);
  });

  it('cascades a withdrawal to every gate after it', () => {
    expect(downstreamOf('spec')).toEqual(['design', 'test_list', 'acceptance', 'deploy', 'promote']);
    expect(downstreamOf('test_list')).toEqual(['acceptance', 'deploy', 'promote']);
    expect(downstreamOf('deploy')).toEqual(['promote']);
    expect(downstreamOf('acceptance')).toEqual([]);
  });
});
