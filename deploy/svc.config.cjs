// The instances' config behind the proxy of docker-compose.yml: one trusted hop, so each
// client's address (rate limits, the audit log, sessions) comes from the proxy's X-Forwarded-For
// rather than being the proxy's own.
module.exports = { trustProxy: 1 };
