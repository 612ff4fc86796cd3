/**
 * The inventory service. Every function takes a pg Pool (anything with query() and connect())
 * as its first argument, so the caller decides which database it talks to.
 *
 * Nothing here yet: the test list in .baton/features/F-inventory/test-list.json drives what
 * gets written, one test at a time.
 */
export {};
