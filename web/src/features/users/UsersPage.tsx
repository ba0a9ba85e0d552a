import { Link } from "@tanstack/react-router";
import { formatUtcTimestamp } from "../../../../lib/format.js";
import { useUsers } from "../../app/query";
import { scopeText } from "./rules";

export function UsersPage() {
  const users = useUsers();
  return (
    <section className="panel" aria-label="Users Manager">
      <div className="row between">
        <h1>Users Manager</h1>
        <Link to="/user/create" className="btn primary">
          Create User
        </Link>
      </div>
      <table className="table">
        <thead>
          <tr>
            <th>Email</th>
            <th>Last seen</th>
            <th>Scope</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {(users.data ?? []).map((u) => (
            <tr key={u.uuid}>
              <td className="shrink">
                <span className="truncate" title={u.email}>
                  {u.email}
                </span>
              </td>
              <td className="num">{u.lastActive === null ? "-" : formatUtcTimestamp(u.lastActive)}</td>
              <td>{scopeText(u.scope)}</td>
              <td>
                <Link to="/user/edit/$uuid" params={{ uuid: u.uuid }} className="btn small">
                  Edit
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {users.isPending ? <p className="muted">Loading…</p> : null}
    </section>
  );
}
