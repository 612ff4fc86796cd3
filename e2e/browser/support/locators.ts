/** Locators for board cards: item ids repeat across features, so a card is named by both. */
import type { Locator, Page } from '@playwright/test';

export const cardOf = (scope: Page | Locator, featureId: string, itemId: string): Locator =>
  scope.locator(`[data-testid="card-${itemId}"][data-feature="${featureId}"]`);

export const allCards = (scope: Page | Locator): Locator => scope.locator('[data-testid^="card-"]');
