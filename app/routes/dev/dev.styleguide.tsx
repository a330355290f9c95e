import { type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Icon } from "~/components/Icon";
import { isDeployed } from "~/lib/env";

/**
 * Development-only reference of the shared classes in app/styles/app.css, so every area builds with
 * the same parts. Not translated on purpose: it is never shown to members (404 in production).
 */
export function loader({ context }: LoaderFunctionArgs) {
  if (isDeployed(context.env)) throw new Response("Not found", { status: 404 });
  return { title: "Style guide" };
}

const demoMembers = [
  ["Sofie", 34, "Amsterdam"],
  ["Lena", 29, "Berlin"],
  ["Mia", 41, "Utrecht"],
  ["Anna", 38, "Hamburg"],
] as const;

export default function StyleGuide() {
  return (
    <div className="container stack">
      <h1>Style guide</h1>
      <p className="text-muted">Shared classes of app/styles/app.css.</p>

      <h2>Buttons</h2>
      <p style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem" }}>
        <button type="button" className="btn btn-primary">
          Primary
        </button>
        <button type="button" className="btn btn-outline">
          Outline
        </button>
        <button type="button" className="btn">
          Default
        </button>
        <button type="button" className="btn btn-link">
          Link
        </button>
        <button type="button" className="btn btn-premium">
          <Icon name="star" size={18} />
          Premium
        </button>
        <button type="button" className="btn btn-primary btn-sm">
          Small
        </button>
        <button type="button" className="btn btn-primary btn-lg">
          Large
        </button>
        <button type="button" className="btn btn-primary" disabled>
          Disabled
        </button>
      </p>

      <h2>Alerts and badges</h2>
      <p className="alert alert-danger" role="alert">
        alert-danger: Login failed, please try again
      </p>
      <p className="alert alert-warning">alert-warning</p>
      <p className="alert alert-info">alert-info</p>
      <p className="alert alert-success">alert-success</p>
      <p style={{ display: "flex", gap: "0.5rem" }}>
        <span className="badge badge-primary">3</span>
        <span className="badge badge-unread">99+</span>
        <span className="badge badge-warning">10</span>
        <span className="badge badge-danger">0</span>
        <span className="badge badge-muted">new</span>
        <span className="badge badge-premium">Premium</span>
      </p>

      <h2>Form card</h2>
      <div className="container-narrow">
        <form className="card form-card" method="get">
          <label className="field">
            <span>E-mail address</span>
            <input type="email" name="email" />
          </label>
          <label className="field">
            <span>Password</span>
            <input type="password" name="password" aria-invalid="true" aria-describedby="sg-error" />
            <span className="field-error" id="sg-error">
              The entered passwords are not the same.
            </span>
          </label>
          <label className="field-check">
            <input type="checkbox" name="remember" />
            <span>Remember me</span>
          </label>
          <button type="submit" className="btn btn-primary btn-block">
            Submit
          </button>
        </form>
      </div>

      <h2>Tabs, pagination, dropdown</h2>
      <nav className="tabs" aria-label="Tabs example">
        <a className="tab" href="#tabs" aria-current="page">
          Received
        </a>
        <a className="tab" href="#tabs">
          Sent
        </a>
        <a className="tab" href="#tabs">
          Matches
        </a>
      </nav>
      <nav className="pagination" aria-label="Pagination example">
        <a className="page-link" href="#p1">
          1
        </a>
        <a className="page-link" href="#p2" aria-current="page">
          2
        </a>
        <a className="page-link" href="#p3">
          3
        </a>
      </nav>
      <details className="dropdown">
        <summary className="btn btn-outline">Dropdown</summary>
        <div className="dropdown-menu">
          <a className="dropdown-item" href="#a">
            First
          </a>
          <a className="dropdown-item active" href="#b">
            Active
          </a>
        </div>
      </details>

      <h2>Member grid</h2>
      <ul className="member-grid">
        {demoMembers.map(([name, age, city]) => (
          <li key={name}>
            <a className="member-card" href="#member">
              <div className="member-card-photo" />
              <div className="member-card-body">
                <p className="member-card-name">
                  {name}, {age}
                </p>
                <p className="member-card-meta">{city}</p>
              </div>
            </a>
          </li>
        ))}
      </ul>

      <h2>Empty state</h2>
      <div className="card empty-state">
        <Icon name="chat" />
        <h2>No messages yet</h2>
        <p>Start a conversation from a profile.</p>
        <a className="btn btn-primary" href="#members">
          Search members
        </a>
      </div>
    </div>
  );
}
