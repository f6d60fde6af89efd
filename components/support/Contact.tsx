import ContactForm from "../../islands/ContactForm.tsx";
import { Island } from "../Island.tsx";
import { Icon } from "../Icon.tsx";

/** Contact page body: the form island and the other ways to get help. */
export function Contact() {
  return (
    <>
      <section aria-labelledby="contact-form-title" className="card contact-card">
        <div className="card__body">
          <h2 id="contact-form-title" className="contact-card__title">Send us a message</h2>
          <p className="muted">
            Questions about a quote, a survey in progress or joining as a surveyor all come to the
            same team. Fields are required unless marked optional.
          </p>
          <Island component={ContactForm} props={{ id: "contact" }} hydrate="load" />
        </div>
      </section>
      <section aria-labelledby="other-ways-title">
        <h2 id="other-ways-title">Other ways to get help</h2>
        <ul className="info-list" role="list">
          <li>
            <Icon name="help" />
            <div>
              <h3>Quick answers</h3>
              <p>
                Most questions about prices, turnaround and what a survey includes are answered in
                the <a href="/support/help-center">Help Center</a>.
              </p>
            </div>
          </li>
          <li>
            <Icon name="clipboard" />
            <div>
              <h3>A survey already in progress</h3>
              <p>
                Your surveyor's contact details are in your dashboard once they are assigned; they
                are the quickest route for questions about fieldwork or your drawing.
              </p>
            </div>
          </li>
          <li>
            <Icon name="clock" />
            <div>
              <h3>Support hours</h3>
              <p>
                Monday to Friday, 8 a.m. to 6 p.m. Eastern. Messages sent outside these hours are
                answered the next business day.
              </p>
            </div>
          </li>
        </ul>
      </section>
    </>
  );
}
