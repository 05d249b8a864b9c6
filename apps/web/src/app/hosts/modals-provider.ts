// The dynamic import target of ModalsHost (a module of its own, so the provider lands in its own chunk).
export { ModalsProvider } from '@mantine/modals';
