import { defineGroup } from './define-group.fixture';

defineGroup('files the Driver writes', ['S16', 'S17', 'S18', 'S19', 'S20', 'S21', 'S22', 'S23', 'S24', 'S25', 'S26', 'S27', 'S28', 'S29', 'S30']);
