package configs

import "encoding/xml"

// The structs below mirror the part of the Amalthea XMI format (APP4MC
// 0.9.x and 1.x) that hetmap reads. Every struct keeps the child elements it
// does not know in Other, so the importer can tell an element it may ignore
// (memory mappings, ports, caches) from one that changes timing and is not
// supported (an ISR, a mode switch), which must be an error.

type axOther struct {
	XMLName xml.Name
}

type axRoot struct {
	XMLName     xml.Name        `xml:"Amalthea"`
	SW          *axSW           `xml:"swModel"`
	HW          *axHW           `xml:"hwModel"`
	OS          *axOS           `xml:"osModel"`
	Stimuli     *axStimuliModel `xml:"stimuliModel"`
	Constraints *axConstraints  `xml:"constraintsModel"`
	Mapping     *axMapping      `xml:"mappingModel"`
	Other       []axOther       `xml:",any"`
}

type axSW struct {
	Tasks     []axTask     `xml:"tasks"`
	Runnables []axRunnable `xml:"runnables"`
	Labels    []axLabel    `xml:"labels"`
	Events    []axEvent    `xml:"events"`
	Other     []axOther    `xml:",any"`
}

type axTask struct {
	Name          string    `xml:"name,attr"`
	Stimuli       string    `xml:"stimuli,attr"`
	Preemption    string    `xml:"preemption,attr"`
	ActivityGraph *axGraph  `xml:"activityGraph"`
	CallGraph     *axGraph  `xml:"callGraph"`
	Other         []axOther `xml:",any"`
}

type axGraph struct {
	Items []axItem  `xml:"items"`
	Other []axOther `xml:",any"`
}

type axItem struct {
	Type      string       `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	Name      string       `xml:"name,attr"`
	Runnable  string       `xml:"runnable,attr"`
	Stimulus  string       `xml:"stimulus,attr"`
	Waiting   string       `xml:"waitingBehaviour,attr"`
	Process   string       `xml:"process,attr"`
	Data      string       `xml:"data,attr"`
	Access    string       `xml:"access,attr"`
	EventMask *axEventMask `xml:"eventMask"`
	Items     []axItem     `xml:"items"`
	Default   *axValue     `xml:"default"`
	Extended  []axExtended `xml:"extended"`
	Other     []axOther    `xml:",any"`
}

type axEventMask struct {
	Events string `xml:"events,attr"`
}

type axExtended struct {
	Key   string   `xml:"key,attr"`
	Value *axValue `xml:"value"`
}

type axValue struct {
	Type       string `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	Value      string `xml:"value,attr"`
	LowerBound string `xml:"lowerBound,attr"`
	UpperBound string `xml:"upperBound,attr"`
	Average    string `xml:"average,attr"`
	Unit       string `xml:"unit,attr"`
}

type axRunnable struct {
	Name          string    `xml:"name,attr"`
	ActivityGraph *axGraph  `xml:"activityGraph"`
	CallGraph     *axGraph  `xml:"callGraph"`
	Other         []axOther `xml:",any"`
}

type axLabel struct {
	Name     string    `xml:"name,attr"`
	Constant string    `xml:"constant,attr"`
	Size     *axValue  `xml:"size"`
	Other    []axOther `xml:",any"`
}

type axEvent struct {
	Type   string `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	Name   string `xml:"name,attr"`
	Entity string `xml:"entity,attr"`
}

type axHW struct {
	Definitions []axDefinition `xml:"definitions"`
	Features    []axFeatureCat `xml:"featureCategories"`
	Structures  []axStructure  `xml:"structures"`
	Domains     []axDomain     `xml:"domains"`
	Other       []axOther      `xml:",any"`
}

type axDefinition struct {
	Type     string `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	Name     string `xml:"name,attr"`
	PUType   string `xml:"puType,attr"`
	Features string `xml:"features,attr"`
}

type axFeatureCat struct {
	Name     string      `xml:"name,attr"`
	Features []axFeature `xml:"features"`
}

type axFeature struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type axStructure struct {
	Name       string        `xml:"name,attr"`
	Structures []axStructure `xml:"structures"`
	Modules    []axModule    `xml:"modules"`
}

type axModule struct {
	Type            string            `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	Name            string            `xml:"name,attr"`
	FrequencyDomain string            `xml:"frequencyDomain,attr"`
	Definition      string            `xml:"definition,attr"`
	AccessElements  []axAccessElement `xml:"accessElements"`
}

type axAccessElement struct {
	Name         string   `xml:"name,attr"`
	Destination  string   `xml:"destination,attr"`
	ReadLatency  *axValue `xml:"readLatency"`
	WriteLatency *axValue `xml:"writeLatency"`
}

type axDomain struct {
	Type         string   `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	Name         string   `xml:"name,attr"`
	DefaultValue *axValue `xml:"defaultValue"`
}

type axOS struct {
	OperatingSystems []axOperatingSystem `xml:"operatingSystems"`
	Other            []axOther           `xml:",any"`
}

type axOperatingSystem struct {
	Name           string        `xml:"name,attr"`
	TaskSchedulers []axScheduler `xml:"taskSchedulers"`
	Other          []axOther     `xml:",any"`
}

type axScheduler struct {
	Name      string       `xml:"name,attr"`
	Algorithm *axAlgorithm `xml:"schedulingAlgorithm"`
}

type axAlgorithm struct {
	Type       string        `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	Parameters []axParameter `xml:"parameterExtensions"`
}

type axParameter struct {
	Key   string `xml:"key,attr"`
	Value string `xml:"value,attr"`
}

type axStimuliModel struct {
	Stimuli []axStimulus `xml:"stimuli"`
	Other   []axOther    `xml:",any"`
}

type axStimulus struct {
	Type       string   `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	Name       string   `xml:"name,attr"`
	Recurrence *axValue `xml:"recurrence"`
	Offset     *axValue `xml:"offset"`
	Jitter     *axValue `xml:"jitter"`
}

type axConstraints struct {
	Requirements []axRequirement `xml:"requirements"`
	EventChains  []axEventChain  `xml:"eventChains"`
	Other        []axOther       `xml:",any"`
}

type axRequirement struct {
	Type    string   `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	Name    string   `xml:"name,attr"`
	Process string   `xml:"process,attr"`
	Limit   *axLimit `xml:"limit"`
}

type axLimit struct {
	Type       string   `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	LimitType  string   `xml:"limitType,attr"`
	Metric     string   `xml:"metric,attr"`
	LimitValue *axValue `xml:"limitValue"`
}

type axEventChain struct {
	Name     string         `xml:"name,attr"`
	Stimulus string         `xml:"stimulus,attr"`
	Response string         `xml:"response,attr"`
	Segments []axChainEntry `xml:"segments"`
	Items    []axChainEntry `xml:"items"`
}

type axChainEntry struct {
	Type       string         `xml:"http://www.w3.org/2001/XMLSchema-instance type,attr"`
	EventChain *axEventChain  `xml:"eventChain"`
	Stimulus   string         `xml:"stimulus,attr"`
	Response   string         `xml:"response,attr"`
	Segments   []axChainEntry `xml:"segments"`
	Items      []axChainEntry `xml:"items"`
}

type axMapping struct {
	SchedulerAllocations []axSchedulerAllocation `xml:"schedulerAllocation"`
	TaskAllocations      []axTaskAllocation      `xml:"taskAllocation"`
	Other                []axOther               `xml:",any"`
}

type axSchedulerAllocation struct {
	Scheduler      string `xml:"scheduler,attr"`
	Responsibility string `xml:"responsibility,attr"`
	ExecutingPU    string `xml:"executingPU,attr"`
}

type axTaskAllocation struct {
	Task       string         `xml:"task,attr"`
	Scheduler  string         `xml:"scheduler,attr"`
	Affinity   string         `xml:"affinity,attr"`
	Params     *axSchedParams `xml:"schedulingParameters"`
	Extensions []axParameter  `xml:"parameterExtensions"`
}

type axSchedParams struct {
	Priority string `xml:"priority,attr"`
}
