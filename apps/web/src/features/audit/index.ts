/**
 * The audit feature's public face: the only file of it that the app shell or another feature may import (lint holds
 * this). Its screens are handed out as loaders, so that each stays a chunk of its own that the route table loads lazily.
 */
export const auditScreens = {
  auditLog: () => import('./routes/audit-log-screen'),
};
