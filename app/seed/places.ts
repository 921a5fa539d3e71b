import { type Faculty, UNIVERSITIES, type University } from "~/directory/universities";

/** Neighbourhoods students actually rent in, per campus, and the landmark ads measure from. */
export type Neighbourhood = {
  /** The first two are within walking distance of the campus. */
  areas: readonly string[];
  landmark: string;
  /** How students talk about the place in a title ("UoM", "Peradeniya campus"). */
  nickname: string;
};

type PlaceBook = { main: Neighbourhood; faculties?: Record<string, Neighbourhood> };

const PLACES: Record<string, PlaceBook> = {
  "university-of-colombo": {
    main: {
      areas: [
        "Thimbirigasyaya, Colombo 05",
        "Borella, Colombo 08",
        "Havelock Town, Colombo 05",
        "Kirulapone, Colombo 06",
        "Wellawatte, Colombo 06",
      ],
      landmark: "the Reid Avenue entrance",
      nickname: "Colombo Uni",
    },
    faculties: {
      "uoc-medicine": {
        areas: ["Borella, Colombo 08", "Maradana, Colombo 10", "Dematagoda, Colombo 09"],
        landmark: "the Faculty of Medicine on Kynsey Road",
        nickname: "Colombo Medical Faculty",
      },
    },
  },
  "university-of-peradeniya": {
    main: {
      areas: ["Peradeniya", "Getambe, Kandy", "Hindagala, Peradeniya", "Gannoruwa, Peradeniya", "Pilimathalawa"],
      landmark: "the Galaha Road gate",
      nickname: "Peradeniya campus",
    },
  },
  "university-of-moratuwa": {
    main: {
      areas: [
        "Katubedda, Moratuwa",
        "Rawathawatte, Moratuwa",
        "Lakshapathiya, Moratuwa",
        "Soysapura, Moratuwa",
        "Angulana, Moratuwa",
      ],
      landmark: "the University of Moratuwa main gate",
      nickname: "UoM",
    },
  },
  "university-of-kelaniya": {
    main: {
      areas: [
        "Dalugama, Kelaniya",
        "Thorana Junction, Kelaniya",
        "Kiribathgoda",
        "Eriyawetiya, Kelaniya",
        "Pethiyagoda, Kelaniya",
      ],
      landmark: "the Dalugama gate",
      nickname: "Kelaniya Uni",
    },
    faculties: {
      "uok-medicine": {
        areas: ["Ragama", "Batuwatta, Ragama", "Mahara"],
        landmark: "Ragama hospital",
        nickname: "Ragama Medical Faculty",
      },
    },
  },
  "university-of-jaffna": {
    main: {
      areas: [
        "Thirunelvely, Jaffna",
        "Parameshwara Junction, Jaffna",
        "Kokuvil, Jaffna",
        "Nallur, Jaffna",
        "Kondavil, Jaffna",
      ],
      landmark: "Parameshwara junction",
      nickname: "Jaffna Uni",
    },
  },
  "university-of-ruhuna": {
    main: {
      areas: ["Wellamadama, Matara", "Meddawatta, Matara", "Kamburugamuwa", "Walgama, Matara", "Isadeen Town, Matara"],
      landmark: "the Wellamadama premises",
      nickname: "Ruhuna Uni",
    },
    faculties: {
      "uor-medicine": {
        areas: ["Karapitiya, Galle", "Labuduwa, Galle", "Hirimbura, Galle"],
        landmark: "Karapitiya teaching hospital",
        nickname: "Karapitiya",
      },
    },
  },
  "university-of-sri-jayewardenepura": {
    main: {
      areas: [
        "Gangodawila, Nugegoda",
        "Wijerama, Nugegoda",
        "Udahamulla, Nugegoda",
        "Mirihana, Nugegoda",
        "Pagoda, Nugegoda",
      ],
      landmark: "the Gangodawila gate",
      nickname: "USJ",
    },
    faculties: {
      "usj-engineering-current": {
        areas: ["Mount Lavinia", "Dehiwala", "Ratmalana"],
        landmark: "Galle Road",
        nickname: "USJ Engineering Faculty",
      },
      "usj-engineering-new": {
        areas: ["Mattegoda", "Polgasowita", "Kottawa"],
        landmark: "the new Faculty of Engineering",
        nickname: "USJ Engineering Faculty",
      },
    },
  },
  "open-university-of-sri-lanka": {
    main: {
      areas: ["Nawala", "Koswatta, Nawala", "Rajagiriya", "Narahenpita, Colombo 05"],
      landmark: "the Nawala campus",
      nickname: "OUSL",
    },
  },
  "sliit-malabe": {
    main: {
      areas: ["Malabe", "Pittugala, Malabe", "Thalahena, Malabe", "Kaduwela", "Athurugiriya"],
      landmark: "SLIIT on New Kandy Road",
      nickname: "SLIIT",
    },
  },
  kdu: {
    main: {
      areas: ["Kandawala, Ratmalana", "Attidiya, Dehiwala", "Ratmalana", "Werahera, Boralesgamuwa"],
      landmark: "the KDU main entrance",
      nickname: "KDU",
    },
  },
  "technical-college-katubedda": {
    main: {
      areas: ["Katubedda, Moratuwa", "Rawathawatte, Moratuwa", "Soysapura, Moratuwa"],
      landmark: "Katubedda junction",
      nickname: "Katubedda Technical College",
    },
  },
  wayamba: {
    main: {
      areas: ["Kuliyapitiya", "Lihiriyagama, Kuliyapitiya", "Dandagamuwa, Kuliyapitiya"],
      landmark: "the university premises",
      nickname: "Wayamba Uni",
    },
  },
  itum: {
    main: {
      areas: ["Diyagama, Homagama", "Kiriwaththuduwa", "Homagama town", "Pitipana, Homagama"],
      landmark: "the ITUM Diyagama campus",
      nickname: "ITUM",
    },
  },
  sabaragamuwa: {
    main: {
      areas: ["Belihuloya", "Pambahinna, Belihuloya", "Balangoda"],
      landmark: "Pambahinna junction",
      nickname: "Sabaragamuwa Uni",
    },
  },
  eastern: {
    main: {
      areas: ["Vantharumoolai, Chenkalady", "Chenkalady", "Eravur", "Batticaloa town"],
      landmark: "the Vantharumoolai campus",
      nickname: "Eastern Uni",
    },
  },
};

export type Campus = { university: University; faculty: Faculty; place: Neighbourhood };

function mainFaculty(university: University): Faculty {
  return university.faculties.find((f) => f.isMainCampus) ?? university.faculties[0];
}

/** A campus of the directory with its neighbourhoods (the main campus unless a faculty id is given). */
export function campus(university: University, facultyId?: string): Campus {
  const book = PLACES[university.id];
  const faculty = (facultyId && university.faculties.find((f) => f.id === facultyId)) || mainFaculty(university);
  const place = (!faculty.isMainCampus && book?.faculties?.[faculty.id]) || book?.main;
  return {
    university,
    faculty,
    place: place ?? { areas: [faculty.city], landmark: "the campus", nickname: university.shortName },
  };
}

/** Every campus in the directory: each university's main campus and its other faculties. */
export function allCampuses(): Campus[] {
  return UNIVERSITIES.flatMap((u) => u.faculties.map((f) => campus(u, f.id)));
}
