/**
 * Close codes of the live socket (GET /api/v1/stream) that the server sends and the web
 * client reads. 1012 is RFC 6455's registered "Service Restart": this process is going away
 * (SIGTERM, draining); reconnect now and the load balancer sends the socket to another one.
 */
export const stream_close_service_restart = 1012;
