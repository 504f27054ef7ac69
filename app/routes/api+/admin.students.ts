import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import { type StudentContactResponse, type UserResponse } from "~/api/schemas";
import { STUDENT_LIST_DEFAULT_PAGE_SIZE, studentListApiQuery } from "~/schemas/page-queries";
import { clientAddress } from "~/http/request-context.server";
import { getDb } from "~/db.server";
import { studentPageFor } from "~/models/personal-data.server";

/**
 * GET /api/admin/students?q=&status=&issue=&page=&page_size= → an array of students (clients
 * read the body as the list itself), searched and paged in SQL; the paging figures
 * travel in X-Total-Count, X-Page, X-Page-Size and X-Page-Count. Trainers and administrators.
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    const reader = await requireApiUser(request, "trainer", "admin");
    const query = parseInput(studentListApiQuery, queryObject(request));
    const page = await studentPageFor(
      getDb(),
      { id: reader.id, role: reader.role, client: clientAddress(request) },
      {
        q: query.q,
        status: query.status,
        issue: query.issue,
        page: query.page,
        pageSize: query.page_size ?? STUDENT_LIST_DEFAULT_PAGE_SIZE,
      },
    );
    return apiJson<Array<UserResponse | StudentContactResponse>>(page.students, {
      headers: {
        "X-Total-Count": String(page.total),
        "X-Total-Count-Exact": String(!page.totalCapped),
        "X-Page": String(page.page),
        "X-Page-Size": String(page.pageSize),
        "X-Page-Count": String(page.pageCount),
      },
    });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
