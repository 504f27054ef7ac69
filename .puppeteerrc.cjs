/** Puppeteer must never download a browser: it launches Debian's Chromium (CHROMIUM_PATH). */
module.exports = { skipDownload: true };
