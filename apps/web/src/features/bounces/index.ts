/**
 * The bounces feature's public face (issue 32 point 2): bounce reports, ESP bounce webhooks and the guarantee's
 * credit-backs. Its screen is handed out as a loader, a chunk of its own that the route table loads lazily.
 */
export const bouncesScreens = {
  bounces: () => import('./routes/bounces-screen'),
};
