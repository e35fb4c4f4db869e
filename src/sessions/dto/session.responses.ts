/** GET /sessions/:sessionID's answer (its presenter documents both profiles' shapes). */
export { SessionWithRelatedResponse } from '../../presenters/session.presenter.js';
