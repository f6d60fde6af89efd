/*
 * Boots the Intercom-compatible customer-chat widget. No inline script (CSP script-src
 * 'self'): the page adds <script defer src="/static/chat-widget.js" data-app-id=…> and this
 * file reads its settings from that tag's data attributes. A tag without data-user-id boots
 * the widget anonymously.
 */
(function () {
  "use strict";
  const script = document.currentScript;
  if (!script) return;
  const data = script.dataset;
  const appId = data.appId;
  if (!appId || !/^[A-Za-z0-9_-]{1,64}$/.test(appId)) return;

  /** ISO time → Unix seconds, the format the widget expects for dates. */
  function seconds(iso) {
    const ms = iso ? Date.parse(iso) : NaN;
    return isNaN(ms) ? undefined : Math.floor(ms / 1000);
  }

  const settings = { app_id: appId };
  if (data.userId) {
    settings.user_id = data.userId;
    settings.email = data.email;
    settings.name = data.name;
    settings.role = data.role;
    if (data.company) settings.company = { company_id: data.company, name: data.company };
    if (data.phone) settings.phone = data.phone;
    settings.created_at = seconds(data.createdAt);
    settings.last_login = seconds(data.lastLogin);
  }
  const w = globalThis;
  w.intercomSettings = settings;

  const ic = w.Intercom;
  if (typeof ic === "function") {
    ic("reattach_activator");
    ic("update", settings);
    return;
  }
  // The vendor's queueing stub: calls made before its script loads are replayed by it.
  const stub = function () {
    stub.c(arguments);
  };
  stub.q = [];
  stub.c = function (args) {
    stub.q.push(args);
  };
  w.Intercom = stub;
  const vendor = document.createElement("script");
  vendor.async = true;
  vendor.src = "https://widget.intercom.io/widget/" + encodeURIComponent(appId);
  document.head.appendChild(vendor);
  w.Intercom("boot", settings);
})();
