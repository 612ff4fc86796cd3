/** The renderer's one store, made of slices. Components select single fields. */
import { create, type StateCreator } from 'zustand';
import { createProjectSlice, type ProjectSlice } from './project-slice';
import { createSessionSlice, type SessionSlice } from './session-slice';
import { createUiSlice, type UiSlice } from './ui-slice';

export type Store = ProjectSlice & SessionSlice & UiSlice;
export type SliceCreator<T> = StateCreator<Store, [], [], T>;

export const useStore = create<Store>()((...args) => ({
  ...createProjectSlice(...args),
  ...createSessionSlice(...args),
  ...createUiSlice(...args),
}));
