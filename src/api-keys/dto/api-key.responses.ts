export { IssuedApiKeyResponse } from '../../presenters/api-key.presenter.js';
