// Types of scripts/queue-config.mjs, for the tests that import it.
export declare const EDGE_CONFIG: string
export declare const ADMIN_CONFIG: string
export interface QueueNames {
  readonly queue: string
  readonly deadLetter: string
}
export declare function queueNames(edgeName: string): QueueNames
export declare function withLedgerQueue<T extends object>(target: T, role: 'edge' | 'admin', names: QueueNames): T & { queues: Record<string, unknown> }
export declare function queueConfigs(env?: string): {
  edge: Record<string, unknown> & { queues?: { producers?: { binding: string; queue: string }[] } }
  admin: Record<string, unknown> & { queues?: { consumers?: { queue: string; dead_letter_queue?: string; max_batch_size: number; max_retries: number }[] } }
  names: QueueNames
}
