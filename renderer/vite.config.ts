import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  // Relative asset paths so the same build loads from file:// in Electron and from the browser host.
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or styles: the CSP forbids them.
    assetsInlineLimit: 0,
    sourcemap: true,
  },
});
