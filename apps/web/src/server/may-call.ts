/** The pages' question "may this caller use that procedure?", answered by the API's own rule. */
export { mayCall } from '@chorus/api';
