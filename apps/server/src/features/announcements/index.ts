export { registerAnnouncementOpsRoute, registerAnnouncementRoutes } from './routes';
export { clearAnnouncement, createAnnouncementClock, setAnnouncement } from './service';
export type { TAnnouncementClock } from './service';
