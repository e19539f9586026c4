/**
 * Automated clients that name themselves in their User-Agent header but whose
 * operator publishes no crawler page, as public crawler lists record them
 * (crawler-user-agents, isbot, Matomo's device detector; `npm run
 * registry:check` lists the names those lists hold and this file lacks). Names only: no
 * operator, category or purpose is claimed for them, so they are not
 * registry entries. `identifyAgent` reports each as a bot whose token is its
 * own name, matched whole like any other name.
 *
 * Add a name here only when it is a product name no person's browser or app
 * uses; an agent whose operator documents it belongs in the registry instead.
 */
export const selfNamedBots: readonly string[] = [
  'Robozilla', 'PritTorrent', 'adreview', 'Insomania', 'Trackable', 'WebMon', 'kiwitcms-gitops', 'placid.app',
  'bluesky-domain-status-classifier', 'ExodusMovement', 'GlobalCoinHeight', 'Collapsify', 'webcollage', 'remove.bg',
  'Readable', 'TestLocally', 'Thinklab', 'LinkTiger', 'ips-agent', 'BIGLOTRON', 'GigablastOpenSource', 'linkdex',
  'linkdex.com', 'WeSEE', 'Xenu Link Sleuth', 'Upflow', 'MeltwaterNews', 'Hatena', 'HatenaBookmark', 'Disqus',
  'Datafeedwatch', 'WordupInfoSearch', 'outbrain', 'NextCloud-News', 'Hydrozen.io', 'asnriskscorer', 'CookieHubVerify',
  'FeedFlow', 'SiteLock', 'Pixalate.com', 'Sindup', 'Blogtrottr', 'Brandwatch', 'CapitalOneShopping',
  'Chatwork LinkPreview', 'cloudflare-csup', 'Criticalcss.com', 'easybill-ImportManager', 'FastmailUA',
  'GoogleAssociationService', 'Hotjar', 'Instapaper', 'Integromat', 'iubenda-radar', 'keycdn-tools', 'Klaviyo',
  'magicsearchdev', 'MarketGoo', 'MediavineMetadataParser', 'Metorik', 'Miniature.io', 'ModularConnector', 'MonitoRSS',
  'NewsNow', 'Omnisend', 'Orlo-LinkPreview', 'Panopta', 'pingping.io', 'PrintFriendly.com', 'PS_Daily', 'Reelevant',
  'SFDC-Callout', 'page-preview-tool', 'Snipcart', 'solarwinds', 'Stape', 'Trustly', 'TwilioProxy', 'Urlcheckr',
  'wheresitup.com', 'abuse.xmco.fr', 'YahooCacheSystem', 'YokoyGroupAG', 'semantic-visions-discovery', 'SSL Labs',
  'Test Certificate Info', 'Library Of Congress Web Archiving', 'New York Times Newsgathering', 'Amazon CloudFront',
  'Bling ERP', 'eMoney Advisor', 'ALittle Client', 'Acquia optimize', 'Corporama matcher', 'Web Screen Service',
  'Webflow', 'Feed Image Audit', 'Penthouse Critical Path CSS Generator', 'Bushbaby', 'Lucidworks-Anda',
]
