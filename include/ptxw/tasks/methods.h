// ptxw/tasks/methods.h: the library's task-pool methods -- the second template argument of
// ptxw::tasks::pool, worker_slot and pool_host -- one file each, the list the front door
// (ptxw/tasks.h) includes. A kernel is written once; the method picks the protocol and the unit of
// the host's capacity. Each file holds its method's tag, its protocol and its row of the method
// table (ptxw/tasks/method_table.h), which says the rest; so a method is added to the library by
// its file and its line here, and elsewhere (a test's, a user's) by its file alone, included where
// it is used (tests/runtime/tasks_method_table_test.cu). tests/tools/test_task_methods.py checks
// that every library file with a row is listed here.
#pragma once

// file                                          method (its tag)
#include <ptxw/tasks/deque.h>           // stealing = stealing_deques<chase_lev>: per-block Chase-Lev deques
#include <ptxw/tasks/one_word_deque.h>  // stealing_deques<one_word>: per-block deques whose ends share one CAS'd word
#include <ptxw/tasks/ticket_ring.h>     // lockfree_queue<ticket_ring>: a bounded MPMC ring of tickets
#include <ptxw/tasks/nil_slots.h>       // lockfree_queue<nil_slots>: Cederman and Tsigas's lock-free queue
#include <ptxw/tasks/locked_queue.h>    // locked_queue: Cederman and Tsigas's blocking queue
#include <ptxw/tasks/static_list.h>     // static_list, static_list_graph: rounds at a grid barrier, or in a graph
