/** The renderer's one store, made of slices. Components select single fields. */
import { create, type StateCreator } from 'zustand';
import { createBranchesSlice, type BranchesSlice } from './branches-slice';
import { createProjectSlice, type ProjectSlice } from './project-slice';
import { createRunSlice, type RunSlice } from './run-slice';
import { createSessionSlice, type SessionSlice } from './session-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

export type Store = ProjectSlice & SessionSlice & UiSlice & BranchesSlice & RunSlice;
export type SliceCreator<T> = StateCreator<Store, [], [], T>;

export const useStore = create<Store>()((...args) => ({
  ...createProjectSlice(...args),
  ...createSessionSlice(...args),
  ...createUiSlice(...args),
  ...createBranchesSlice(...args),
  ...createRunSlice(...args),
}));
