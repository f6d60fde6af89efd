import { Faqs } from "../Faqs.tsx";
import { Icon, type IconName } from "../Icon.tsx";
import type { Faq } from "../../lib/service_content.ts";

const TOPICS: { icon: IconName; title: string; text: string; href: string }[] = [
  {
    icon: "compass",
    title: "Getting Started",
    text: "Choose the right survey and know what to have ready.",
    href: "/support/getting-started",
  },
  {
    icon: "calendar",
    title: "Timeline & Scheduling",
    text: "Turnaround for each survey and what can change it.",
    href: "/support/timeline-scheduling",
  },
  {
    icon: "award",
    title: "Quality Standards",
    text: "How we verify surveyors and what every survey includes.",
    href: "/support/quality-standards",
  },
  {
    icon: "mail",
    title: "Contact Us",
    text: "Write to our support team; we reply within one business day.",
    href: "/support/contact",
  },
];

const SECTIONS: { id: string; title: string; faqs: Faq[] }[] = [
  {
    id: "quotes",
    title: "Quotes and pricing",
    faqs: [
      {
        q: "How is my instant quote calculated?",
        a: "From the survey type, the size of the parcel at the address you enter and survey rates in that area. Starting prices are $385 for a boundary survey, $285 for an elevation certificate, $485 for a topographic survey, $1,285 for an ALTA/NSPS survey and $685 for construction staking; subdivisions are quoted per project.",
      },
      {
        q: "Is the quote really free?",
        a: "Yes. Getting a quote costs nothing and does not commit you to anything.",
      },
      {
        q: "Do I have to pay anything upfront?",
        a: "No. There is no upfront payment to request a survey or to be matched with a surveyor. Your surveyor confirms the scope, price and date with you before any fieldwork begins.",
      },
      {
        q: "Why could the final price differ from my instant quote?",
        a: "The quote is based on what records show about the parcel. Conditions on the ground, such as dense woods, missing corner markers or conflicting deeds, can add work. If so, your surveyor explains why and agrees any change with you before starting, and you can decline.",
      },
      {
        q: "I have a discount code. Where do I enter it?",
        a: "Enter it in the discount code field when you submit your survey request. The discount is shown in your quote before you confirm.",
      },
    ],
  },
  {
    id: "scheduling",
    title: "Scheduling and turnaround",
    faqs: [
      {
        q: "How soon will a surveyor contact me?",
        a: "Surveyors respond in 48 hours on average. Your surveyor calls or emails to confirm the details and book the field visit.",
      },
      {
        q: "How long until I receive my survey?",
        a: "Most surveys are delivered in 5-10 business days. Elevation certificates take 3-5 days and ALTA surveys 7-14 days. Subdivision timelines are set with the quote.",
      },
      {
        q: "Do I need to be at the property?",
        a: "Usually not. The surveyor needs access to the property lines and, for an elevation certificate, a short look at the garage, crawlspace or machinery. Mention gates, pets or access codes in your request.",
      },
      {
        q: "What happens if it rains?",
        a: "Light rain rarely stops fieldwork, but storms, snow cover and flooding can. Your surveyor reschedules with you and the timeline moves by the days lost.",
      },
    ],
  },
  {
    id: "your-survey",
    title: "Your survey",
    faqs: [
      {
        q: "Which survey do I need?",
        a: "It depends on why you need it: a fence or a neighbor question needs a boundary survey, a design project needs a topographic survey, a commercial closing usually needs an ALTA/NSPS survey and flood insurance needs an elevation certificate. The Getting Started guide has a full table.",
      },
      {
        q: "What will I receive?",
        a: "A survey signed and sealed by the licensed surveyor who did the work, as a PDF. Topographic, ALTA and construction surveys include CAD files, and boundary corners are marked on the ground.",
      },
      {
        q: "Can I follow the progress of my request?",
        a: "Yes. Sign in to your dashboard to see each request's status and your notifications, from surveyor assigned to survey completed.",
      },
    ],
  },
  {
    id: "surveyors",
    title: "For surveyors",
    faqs: [
      {
        q: "How do I join Meridian as a surveyor?",
        a: "Create an account, then send us your state license number and proof of insurance. Once your license is verified, you start receiving leads for properties in your service area.",
      },
      {
        q: "How do leads work?",
        a: "When a client requests a survey near you, you are notified with the survey details and a lead price. You choose which leads to buy or claim; purchased leads and their client details appear in your dashboard.",
      },
      {
        q: "Where do I sign in?",
        a: "Use Surveyor Login at the bottom of every page, or go to the login page directly.",
      },
    ],
  },
  {
    id: "account",
    title: "Account and privacy",
    faqs: [
      {
        q: "I forgot my password.",
        a: "Choose 'Forgot Password?' on the login page and enter your email address. If an account exists, you'll receive a link to set a new password.",
      },
      {
        q: "How do I delete my account or get a copy of my data?",
        a: "Send us a message with the topic 'Privacy or a data request' from the email address on your account. We answer within one business day and complete requests within 30 days.",
      },
    ],
  },
];

/** The Help Center: topic links and answers grouped by subject. */
export function HelpCenter() {
  return (
    <>
      <ul className="topic-grid" role="list">
        {TOPICS.map((t) => (
          <li key={t.href} className="card topic-card">
            <a href={t.href} className="card__body topic-card__link">
              <span className="icon-badge">
                <Icon name={t.icon} />
              </span>
              <span className="topic-card__title">{t.title}</span>
              <span className="muted">{t.text}</span>
            </a>
          </li>
        ))}
      </ul>
      <nav aria-label="Help topics" className="toc">
        <h2 className="toc__heading">Jump to</h2>
        <ul role="list" className="cluster">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {SECTIONS.map((s) => (
        <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`}>
          <h2 id={`${s.id}-title`}>{s.title}</h2>
          <Faqs faqs={s.faqs} />
        </section>
      ))}
    </>
  );
}
