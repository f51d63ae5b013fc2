import { type FastifyInstance } from 'fastify';
import { type World } from '../world.js';

export function webhookRoutes(_app: FastifyInstance, _world: World): void {}
