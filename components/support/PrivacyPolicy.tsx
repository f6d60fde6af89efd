/** Date the policy last changed; shown at the top and bumped with every edit. */
export const PRIVACY_UPDATED = "November 21, 2026";

/** The privacy policy. Plain language, specific about every third party and retention. */
export function PrivacyPolicy() {
  return (
    <>
      <p className="muted">Last updated: {PRIVACY_UPDATED}</p>
      <p>
        This policy explains what personal information Meridian Survey Marketplace, Inc.
        ("Meridian", "we") collects when you use this website, why, who we share it with, how long
        we keep it and the choices you have. We do not sell your personal information.
      </p>

      <h2 id="what-we-collect">What we collect</h2>
      <ul>
        <li>
          <strong>Account details:</strong>{" "}
          your name, email address and password (stored only as a salted Argon2id hash), and for
          surveyors also company name, phone number and license details.
        </li>
        <li>
          <strong>Survey requests:</strong>{" "}
          the property address, its map coordinates and parcel information, the survey type, and the
          notes and contact details you give for the job.
        </li>
        <li>
          <strong>Messages:</strong>{" "}
          what you send through the contact form (name, email, optional phone, topic and message)
          and through the chat widget.
        </li>
        <li>
          <strong>Technical data:</strong>{" "}
          your IP address, browser type, the pages you request and when, recorded in server logs to
          keep the service secure and working.
        </li>
      </ul>

      <h2 id="how-we-use">How we use it</h2>
      <ul>
        <li>To give you a quote and match your request with a licensed surveyor.</li>
        <li>To let you, your surveyor and our support team communicate about your survey.</li>
        <li>To send account emails such as password resets and request updates.</li>
        <li>
          To prevent abuse, for example by limiting how often a form can be sent from one address.
        </li>
        <li>To understand, in aggregate, which pages are useful and improve them.</li>
      </ul>

      <h2 id="surveyors">Sharing with surveyors</h2>
      <p>
        When you request a survey, surveyors near the property are notified with the survey type,
        the general location and the lead price. The surveyor who takes the job receives the full
        address and your contact details so they can confirm the scope and schedule the visit.
        Surveyors are independent licensed professionals and handle that information under their own
        professional obligations.
      </p>

      <h2 id="chat">Customer chat widget</h2>
      <p>
        Our support chat is provided by a third-party customer-messaging service. When the chat
        widget loads for a signed-in user, we pass it your user id, email, name, role, company,
        phone and the dates your account was created and last used, so our team can see who they are
        talking to without asking you to repeat yourself. The conversations you have in the chat are
        stored by that provider on our behalf. The widget sets its own cookies to keep your
        conversation open as you move between pages.
      </p>

      <h2 id="analytics">Analytics</h2>
      <p>
        We use a third-party page-view analytics service to count visits. It receives the path of
        each page you view, the referring page and basic browser information such as browser type
        and screen size. We use it only for aggregate statistics: it is not used for advertising,
        and we do not send it your name, email address or the property addresses you enter.
      </p>

      <h2 id="other-providers">Other service providers</h2>
      <p>
        We use a small number of processors to run the service: hosting and database providers, an
        email delivery service for account and request emails, a maps and address lookup service
        that receives the address text you type to suggest matching addresses, and a parcel-data
        provider that receives the property location to look up parcel size. Each may use the
        information only to provide its service to us.
      </p>

      <h2 id="cookies">Cookies</h2>
      <ul>
        <li>
          <strong>Session cookie (strictly necessary):</strong>{" "}
          keeps you signed in. It is HttpOnly (not readable by scripts), sent only to this site, and
          removed when you sign out or the session expires.
        </li>
        <li>
          <strong>Chat widget cookies:</strong>{" "}
          set by the chat provider to identify your conversation.
        </li>
      </ul>
      <p>
        We do not use advertising or cross-site tracking cookies. You can block or delete cookies in
        your browser settings; without the session cookie you cannot sign in.
      </p>

      <h2 id="retention">How long we keep data</h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Data</th>
              <th scope="col">Kept for</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Account details</td>
              <td>While your account is open; deleted within 30 days of a deletion request</td>
            </tr>
            <tr>
              <td>Survey requests and their records</td>
              <td>7 years, for professional, tax and dispute records</td>
            </tr>
            <tr>
              <td>Contact form messages</td>
              <td>2 years</td>
            </tr>
            <tr>
              <td>Server logs (IP address, page, time)</td>
              <td>30 days</td>
            </tr>
            <tr>
              <td>Rate-limit counters</td>
              <td>1 hour</td>
            </tr>
            <tr>
              <td>Password reset links</td>
              <td>Until used or expired</td>
            </tr>
          </tbody>
        </table>
      </div>

      <h2 id="security">Security</h2>
      <p>
        All traffic is encrypted with HTTPS. Passwords are never stored in readable form, access to
        personal data is limited to staff who need it, and sessions can be ended by signing out.
      </p>

      <h2 id="your-rights">Your choices and rights</h2>
      <p>
        You can ask us to show you, correct, export or delete the personal information we hold about
        you. Residents of California and other states with privacy laws have these rights by law,
        and we extend them to everyone. We will not treat you differently for using them. To make a
        request, use the <a href="/support/contact">contact form</a>{" "}
        with the topic "Privacy or a data request" from the email address on your account. We reply
        within one business day and complete requests within 30 days.
      </p>

      <h2 id="children">Children</h2>
      <p>
        Meridian is for adults arranging property services and is not directed to children under 16.
        We do not knowingly collect their information.
      </p>

      <h2 id="changes">Changes to this policy</h2>
      <p>
        When we change this policy we update the date at the top. If a change materially affects how
        we use information you have already given us, we will email account holders before it takes
        effect.
      </p>

      <h2 id="contact">Contact</h2>
      <p>
        Questions about this policy or your data: write to us through the{" "}
        <a href="/support/contact">contact form</a>{" "}
        and choose "Privacy or a data request". Meridian Survey Marketplace, Inc. is responsible for
        the personal information described here.
      </p>
    </>
  );
}
