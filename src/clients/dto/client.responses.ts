export { ListedClientDocument } from '../../presenters/client.presenter.js';
