import { defineConfig } from './src/config/index.ts'

// The crawler policy: served as /robots.txt and enforced per request.
export default defineConfig({
  rules: [
    { userAgent: '*', allow: '/', disallow: ['/admin/', '/*.pdf$'] },
    { userAgent: ['GPTBot', 'CCBot'], disallow: '/' },
  ],
  sitemap: ['https://example.com/sitemap.xml'],
})
