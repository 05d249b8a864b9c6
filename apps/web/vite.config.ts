import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { routeJsReport } from './build/route-js-report.ts';

export default defineConfig({
  plugins: [
    react(),
    // Precompressed copies beside every asset: @fastify/static serves .br / .gz to clients that accept them.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|html|svg|json|txt|map)$/, threshold: 512 }),
    routeJsReport({ '/login': 'src/features/auth/routes/login-screen.tsx' }),
  ],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
